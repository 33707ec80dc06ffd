import ArgumentParser
import CrashtrailReplay

extension ReplayFormat: ExpressibleByArgument {}

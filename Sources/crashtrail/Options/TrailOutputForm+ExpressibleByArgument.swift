import ArgumentParser
import CrashtrailService

extension TrailOutputForm: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }
}

import CrashtrailCore

/// The reader and writer of times is `Timestamp` in CrashtrailCore, shared with the trail codec and
/// the command line; this name keeps it in reach of code that imports only the collector.
public typealias Timestamp = CrashtrailCore.Timestamp

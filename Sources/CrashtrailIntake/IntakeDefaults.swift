/// The defaults `ingest` and `serve` share, written once.
public enum IntakeDefaults {
    /// Where refused inputs are copied, each with its reason beside it.
    public static let quarantineDirectory = "crashtrail-quarantine"
    /// Inputs (ingest) or reports (serve) one transaction stores.
    public static let batchSize = 256
    /// How far a crash's launch time may be from a trail's `session.started`, in milliseconds (SPEC section 7).
    public static let joinTolerance: Int64 = 2000
    /// The most steps an embedded trail may have; more is refused as undecodable (a recorder keeps 500).
    public static let maximumTrailSteps = 100_000
}

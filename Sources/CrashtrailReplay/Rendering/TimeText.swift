/// Milliseconds as `mm:ss.mmm` (minutes grow past two digits when they must).
enum TimeText {
    static func format(milliseconds t: Int64) -> String {
        let clamped = max(t, 0)
        let minutes = clamped / 60_000
        let seconds = (clamped / 1_000) % 60
        let millis = clamped % 1_000
        return pad(minutes, 2) + ":" + pad(seconds, 2) + "." + pad(millis, 3)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

import CrashtrailEncoding

extension TrailInspection {
    /// What `crashtrail trail inspect` prints for people.
    package var text: String {
        let dictionary =
            dictionaryID.map { id in
                "\(id) (\(dictionaryApp ?? "?"), \(dictionarySource ?? "?"))"
            } ?? "none"
        return """
            form:            \(form.rawValue)
            format version:  \(formatVersion)
            app:             \(app)
            dictionary:      \(dictionary)
            steps:           \(stepCount)
            binary:          \(binarySize) bytes (\(TrailInspection.decimal(bytesPerStep, places: 2)) bytes/step)
            ct1: text:       \(textLength) characters
            body:            \(bodySize) bytes before deflate
            canonical JSON:  \(jsonSize) bytes
            ratio:           \(TrailInspection.decimal(ratio, places: 4)) of the JSON
            """
    }
}

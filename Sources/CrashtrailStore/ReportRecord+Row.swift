import CrashtrailCore
import CrashtrailReports
import Foundation

extension ReportRecord {
    /// One row's placeholders: `(?, ?, …)`.
    static let valuesPlaceholders = "(\(ReportColumn.allCases.map { _ in "?" }.joined(separator: ", ")))"

    /// Inserts a row unless its ID is taken (then it changes nothing).
    package static let insertSQL = "INSERT INTO report (\(ReportColumn.list)) VALUES \(valuesPlaceholders) ON CONFLICT (id) DO NOTHING"

    /// The value of one column.
    package func value(of column: ReportColumn) -> StoreValue {
        switch column {
        case .id: .text(id)
        case .format: .text(format.rawValue)
        case .sha256: .text(sha256)
        case .bundleID: StoreValue(bundleID)
        case .appVersion: StoreValue(appVersion)
        case .appBuild: StoreValue(appBuild)
        case .osName: StoreValue(osName)
        case .osVersion: StoreValue(osVersion)
        case .device: StoreValue(device)
        case .time: StoreValue(time)
        case .exceptionType: StoreValue(exceptionType)
        case .exceptionCode: StoreValue(exceptionCode)
        case .exceptionSignal: StoreValue(exceptionSignal)
        case .exceptionReason: StoreValue(exceptionReason)
        case .frames: .text(frames)
        case .exceptionFrames: .text(exceptionFrames)
        case .details: .text(details)
        case .signature: .text(signature)
        case .trailSource: .text(trailSource.rawValue)
        case .trailSteps: StoreValue(trailSteps)
        case .trailError: StoreValue(trailError)
        case .trail: StoreValue(trail)
        case .trailDictionary: StoreValue(trailDictionary)
        case .screenPath: StoreValue(screenPath)
        case .pathManifest: StoreValue(pathManifest)
        case .pid: StoreValue(pid)
        case .launchTime: StoreValue(launchTime)
        case .source: .text(source)
        case .payload: .blob(payload)
        case .payloadSize: .integer(Int64(payloadSize))
        case .project: StoreValue(project)
        }
    }

    /// The row's values, in ``ReportColumn`` order.
    package var storeValues: [StoreValue] { ReportColumn.allCases.map(value(of:)) }

    /// The derived columns' values, in ``ReportColumn`` order.
    package var derivedValues: [StoreValue] { ReportColumn.allCases.filter(\.isDerived).map(value(of:)) }

    /// The record a row of `report` or `reportWithTrail` holds.
    /// - Throws: `StoreError` (`database`) when a column that is never empty is, or holds an unknown name.
    package init(row: StoreRow) throws(StoreError) {
        func text(_ column: ReportColumn) -> String? { row.string(column.name) }
        func required(_ column: ReportColumn) throws(StoreError) -> String { try row.requiredString(column.name) }
        let formatName = try required(.format)
        guard let format = ReportFormat(rawValue: formatName) else {
            throw StoreError(.database, "a stored report has the unknown format \"\(formatName)\"; a newer crashtrail may have written it")
        }
        let sourceName = try required(.trailSource)
        guard let trailSource = TrailInfo.Source(rawValue: sourceName) else {
            throw StoreError(
                .database, "a stored report has the unknown trail source \"\(sourceName)\"; a newer crashtrail may have written it")
        }
        self.init(
            id: try required(.id), format: format, sha256: try required(.sha256), bundleID: text(.bundleID),
            appVersion: text(.appVersion), appBuild: text(.appBuild), osName: text(.osName), osVersion: text(.osVersion),
            device: text(.device), time: text(.time), exceptionType: text(.exceptionType), exceptionCode: text(.exceptionCode),
            exceptionSignal: text(.exceptionSignal), exceptionReason: text(.exceptionReason), frames: try required(.frames),
            exceptionFrames: text(.exceptionFrames) ?? "[]", details: text(.details) ?? "{}", signature: try required(.signature),
            trailSource: trailSource,
            trailSteps: row.int(ReportColumn.trailSteps.name),
            trailError: text(.trailError), trail: text(.trail), trailDictionary: text(.trailDictionary),

            pid: row.int64(ReportColumn.pid.name), launchTime: row.int64(ReportColumn.launchTime.name), source: try required(.source),
            payload: row.data(ReportColumn.payload.name) ?? Data(), payloadSize: row.int(ReportColumn.payloadSize.name) ?? 0)
        // As stored: a listing reads every row, and parsing the path to write it again would change nothing.
        screenPath = text(.screenPath)
        pathManifest = text(.pathManifest)
        guard let project = row.project(ReportColumn.project.name) else {
            throw StoreError(
                .database, "the stored report \(id) names no project (its project column is \(row[ReportColumn.project.name]))")
        }
        self.project = project
    }
}

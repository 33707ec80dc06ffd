import CrashtrailCore
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import Foundation

/// The last stage of the intake path: the row the store keeps, from the parsed payload and what the stages derived.
enum RecordStage {
    /// The stored row.
    /// - Parameters:
    ///   - parsed: the parsed payload.
    ///   - identity: its ID and digest.
    ///   - payload: the input's bytes, compressed, and their size.
    ///   - trail: the trail stage's trail.
    ///   - frames: the symbol stage's frames.
    ///   - exception: the exception, completed.
    ///   - signature: the group key.
    ///   - screenPath: the trail's last screens, when it has a manifest.
    ///   - source: where the payload came from.
    /// - Returns: the row.
    static func record(
        _ parsed: ParsedPayload, identity: PayloadIdentity, payload: CompressedPayload, trail: DerivedTrail,
        frames: SymbolStage.Frames, exception: ExceptionInfo, signature: String, screenPath: StoredScreenPath?, source: String
    ) -> ReportRecord {
        ReportRecord(
            id: identity.id, format: parsed.format, sha256: identity.digest, bundleID: parsed.app.bundleID,
            appVersion: parsed.app.version, appBuild: parsed.app.build, osName: parsed.os.name, osVersion: parsed.os.version,
            device: parsed.device, time: parsed.time, exceptionType: exception.type, exceptionCode: exception.code,
            exceptionSignal: exception.signal, exceptionReason: exception.reason,
            frames: ReportRecord.encodeFrames(frames.crashed), exceptionFrames: ReportRecord.encodeFrames(frames.exception),
            details: ReportRecord.encodeDetails(
                crashedThread: parsed.crashedThread, exception: exception,
                binaryImages: imagesNamed(by: frames.crashed + frames.exception, from: parsed.binaryImages)),
            signature: signature,
            trailSource: trail.info.source, trailSteps: trail.info.steps, trailError: trail.info.error, trail: trail.json,
            trailDictionary: trail.dictionaryID, screenPath: screenPath,
            pid: parsed.pid, launchTime: parsed.launchTime, source: source, payload: payload.data, payloadSize: payload.size,
            images: reportImages(frames: frames, images: parsed.binaryImages), sessionID: parsed.sessionID)
    }

    /// The images the frames name with a UUID, as the store indexes them: whether one holds the app's code, and whether
    /// its debug file named the frames.
    static func reportImages(frames: SymbolStage.Frames, images: [BinaryImage]) -> [ReportImage] {
        let all = frames.crashed + frames.exception
        let inApp = Set(all.compactMap { $0.inApp ? $0.image : nil })
        return imagesNamed(by: all, from: images).compactMap { image in
            guard let uuid = image.uuid else { return nil }
            return ReportImage(
                uuid: uuid, name: image.name, inApp: inApp.contains(image.name), symbolicated: frames.symbolicatedImages.contains(uuid))
        }
    }

    /// The images `frames` name, in the order they are first named, from the payload's `images`; the first of a name
    /// wins.
    static func imagesNamed(by frames: [StackFrame], from images: [BinaryImage]) -> [BinaryImage] {
        guard !images.isEmpty else { return [] }
        var byName: [String: BinaryImage] = [:]
        for image in images where byName[image.name] == nil { byName[image.name] = image }
        var seen: Set<String> = []
        return frames.compactMap { frame in
            guard let name = frame.image, seen.insert(name).inserted else { return nil }
            return byName[name]
        }
    }
}

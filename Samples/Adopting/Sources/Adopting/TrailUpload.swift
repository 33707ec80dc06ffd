public import CrashtrailCore
import CrashtrailEncoding
public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// docs/ADOPTING.md, step 6: the previous session's trail, posted to the collector at the next launch.
public enum TrailUpload {
    /// The request that posts `trail` to `crashtrail serve` (`POST /api/PROJECT/trails`, the project's key as bearer
    /// token): its compact binary form, a few hundred bytes.
    /// - Throws: `TrailCodecError` when the trail cannot be encoded.
    public static func request(for trail: Trail, collector: URL, project: Int, key: String) throws -> URLRequest {
        var request = URLRequest(url: collector.appendingPathComponent("api/\(project)/trails"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(try TrailCodec().encodeBinary(trail))
        return request
    }
}

// What Xcode's compiler runtime (libclang_rt.ios.a) gives every iOS link and the Linux toolchain lacks: the check
// that Swift's `#available` and clang's `__builtin_available` compile to. Tools/ios-lane.sh links it into the sample
// app when it builds on Linux; on a Mac the toolchain's own is linked and this file is not used.
//
// dyld answers the question itself: `_availability_version_check` (libSystem, iOS 14 and later) tells whether the
// running OS is at least each given platform version, encoded as 0xMMMMmmpp.
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint32_t platform;
    uint32_t version;
} crashtrail_lane_build_version;

extern bool _availability_version_check(uint32_t count, crashtrail_lane_build_version versions[]);

int32_t __isPlatformVersionAtLeast(uint32_t platform, uint32_t major, uint32_t minor, uint32_t subminor) {
    crashtrail_lane_build_version wanted = {platform, (major << 16) | ((minor & 0xFF) << 8) | (subminor & 0xFF)};
    return _availability_version_check(1, &wanted) ? 1 : 0;
}

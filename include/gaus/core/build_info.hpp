// What a results record (and `gaus --version`) says about where it was made: the software
// version with the revision it was built from, the host, and the time. A library of its own
// (gaus_build_info, src/core/CMakeLists.txt): its source is written at every build, so only the
// programs that link it relink when the revision changes.
#pragma once

#include <string>

namespace gaus {

// "gaus 0.1.0 (e9cddee)": the project version and the git revision of the build ("-dirty" when
// the tree had changes, "unknown" outside a git checkout).
std::string softwareVersion();

// The host name (gethostname).
std::string hostName();

// The current time as ISO-8601 UTC, to the second: "2026-11-23T09:12:00Z".
std::string utcTimestamp();

}  // namespace gaus

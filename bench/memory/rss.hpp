#pragma once
// The process's resident set from /proc/self/status (Linux), for the peak
// memory benchmarks: VmHWM is the peak since the process began or since
// reset_peak(), VmRSS the resident set now, both in MiB.
#include <fstream>
#include <string>

namespace rss {
inline double status_mib(const std::string& which) {  // "VmHWM" or "VmRSS"
  std::ifstream status("/proc/self/status");
  std::string key;
  double kib = 0;
  while (status >> key)
    if (key == which + ":") {
      status >> kib;
      break;
    }
  return kib / 1024.0;
}
inline void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }  // VmHWM from here on
}  // namespace rss

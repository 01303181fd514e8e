// A library whose registration "entry point" is a data object (a table of
// bytes): the loader must refuse it before calling anything.
#include <dtrcheck/heuristic.h>

extern "C" __attribute__((visibility("default"))) int dtrcheck_plugin_abi_version() {
  return dtrcheck::api::kAbiVersion;
}
extern "C" __attribute__((visibility("default")))
const unsigned char dtrcheck_plugin_register[16] = {0xff, 0xff, 0xff, 0xff};

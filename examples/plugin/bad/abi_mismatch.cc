// A plugin built for another ABI version (the test of the loader's check).
#include <dtrcheck/heuristic.h>

extern "C" __attribute__((visibility("default"))) int dtrcheck_plugin_abi_version() {
  return dtrcheck::api::kAbiVersion + 1000;
}
extern "C" __attribute__((visibility("default"))) void dtrcheck_plugin_register(
    dtrcheck::api::Registrar&) {}

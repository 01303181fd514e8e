// A plugin whose ABI-version entry point throws (C linkage, but C++ code).
#include <dtrcheck/heuristic.h>

extern "C" __attribute__((visibility("default"))) int dtrcheck_plugin_abi_version() { throw 1; }
extern "C" __attribute__((visibility("default"))) void dtrcheck_plugin_register(
    dtrcheck::api::Registrar&) {}

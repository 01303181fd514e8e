// A plugin that crashes while registering: the crash report names it.
#include <dtrcheck/heuristic.h>

namespace {
volatile int* volatile g_null = nullptr;
}

DTRCHECK_PLUGIN(registrar) {
  (void)registrar;
  *g_null = 1;
}

// A shared library that is not a dtrcheck plugin (no entry points).
extern "C" int not_a_plugin() { return 0; }

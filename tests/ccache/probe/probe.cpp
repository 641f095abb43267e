// Compiled by tests/ccache/ccache_module_check.cmake, through whatever launcher the
// compiler cache module chose.
int main() { return 0; }

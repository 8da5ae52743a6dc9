/* fixture_main.c — linked with fixture_plugin.c (-DNO_ENTRY) into a PIE executable, which the host must refuse
 * as a plugin even when it is named *.so. */
int main(void) { return 0; }

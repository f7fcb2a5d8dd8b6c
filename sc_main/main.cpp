// The program's own main (the linker takes it before libsystemc's): SystemC prints its banner
// when its kernel starts unless the environment says otherwise, so say it here, whatever the
// caller's environment holds (SC_COPYRIGHT_MESSAGE set to anything but DISABLE would turn it
// back on), then start SystemC as its main would.
#include <cstdlib>
#include <systemc>

#include "sc_main/cli.hpp"

int sc_main(int argc, char** argv) { return collnoc::cli_main(argc, argv); }

int main(int argc, char** argv) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

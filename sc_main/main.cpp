// libsystemc provides main() and calls sc_main.
#include <systemc>

#include "sc_main/cli.hpp"

int sc_main(int argc, char** argv) { return collnoc::cli_main(argc, argv); }

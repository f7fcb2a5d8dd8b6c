// Catch2 runner behind SystemC's main(): libsystemc calls sc_main, which runs the session.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char** argv) { return Catch::Session().run(argc, argv); }

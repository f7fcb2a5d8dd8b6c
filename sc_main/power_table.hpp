// power.table: the YAML table of energy coefficients (docs/energy.md#tables) into a PowerTable.
#pragma once
#include <string>

#include "platforms/energy_model.hpp"

namespace collnoc::cli {

// Every coefficient of power_coefficients() must be there, as `name: {value: X, unit: U}` with
// its own unit and a finite X >= 0; `technology: text` may describe the table. Anything else
// (a missing, unknown or malformed entry, a wrong unit) throws InputError naming the file and
// the entry.
PowerTable load_power_table(const std::string& path);

}  // namespace collnoc::cli

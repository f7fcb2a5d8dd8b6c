// Files a user names as input (a configuration, a payload or data dump): what is wrong with a
// path as one. A directory, FIFO, device or socket is refused rather than read: a directory
// reads as empty (the defaults would run), a FIFO may block forever, a device may never end.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

namespace collnoc {

// Empty when `path` is a readable regular file (or a link to one); else why not, for a message
// that names the path and the key.
inline std::optional<std::string> input_file_problem(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return std::string("an empty path");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return "no such file: " + path;
  if (fs::is_directory(st)) return path + " is a directory, not a file";
  if (!fs::is_regular_file(st)) return path + " is not a regular file (a FIFO, device or socket)";
  if (::access(path.c_str(), R_OK) != 0) return path + " is not readable";
  return std::nullopt;
}

}  // namespace collnoc

// Files the program writes (results JSON, sweep CSV, the GTKWave save file): checked before a
// run simulates, and written so that nothing but the file itself is ever replaced.
#pragma once
#include <stdexcept>
#include <string>

namespace collnoc::cli {

// A write that failed after the simulation (disk full, a device that refuses): exit status 1,
// the message says what was lost.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Refuses (InputError, naming `option`) a path the program could not write its output to: an
// empty path, a directory, a missing or read-only directory, a read-only file, or something
// other than a regular file, a character device or a FIFO (a socket, a block device). A link is
// judged by what it points to.
void check_writable(const std::string& path, const char* option);

// Writes `text` to `path`. A regular file (or a new one) is written to a temporary file beside
// it and renamed over it, so a reader never sees half of it (through a link: the file it points
// to); a character device or FIFO (/dev/stdout, a pipe) is written straight, never replaced.
// `what` names the contents for the error message ("results", "sweep CSV").
void write_output(const std::string& path, const std::string& text, const std::string& what);

// Appends `text` to the regular file `path` in one write (a sweep's rows as they finish).
void append_output(const std::string& path, const std::string& text, const std::string& what);

// Whether `path` is (or links to) a regular file or does not exist yet: a file the program may
// rewrite in place piece by piece.
bool is_rewritable_file(const std::string& path);

}  // namespace collnoc::cli

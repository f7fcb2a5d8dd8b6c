// What the fuzz targets share (docs/fuzzing.md): how a target reports a finding, a sink for the
// reports commands print, and a file for entry points that read one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <streambuf>
#include <string>

namespace collnoc::fuzz {

// Ends the run as a finding: libFuzzer saves the input that got here (SIGABRT).
[[noreturn]] void finding(const std::string& what);
inline void expect(bool ok, const std::string& what) {
  if (!ok) finding(what);
}

// std::cout discards what is written while this lives: the commands' reports still run, unseen.
class DiscardStdout {
 public:
  DiscardStdout();
  ~DiscardStdout();
  DiscardStdout(const DiscardStdout&) = delete;
  DiscardStdout& operator=(const DiscardStdout&) = delete;

 private:
  struct Sink : std::streambuf {
    int overflow(int c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  };
  Sink sink_;
  std::streambuf* saved_;
};

// `name` in a directory of this process's own (removed at exit), holding `size` bytes of `data`;
// returns its path.
std::string scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size);

}  // namespace collnoc::fuzz

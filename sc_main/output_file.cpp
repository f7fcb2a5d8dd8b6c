#include "sc_main/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sc_main/config.hpp"

namespace collnoc::cli {

namespace fs = std::filesystem;

namespace {

// Writes all of `text` to the open descriptor; false with errno set when a write fails.
bool write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string lost(const std::string& what, const std::string& path, int error) {
  return "cannot write the " + what + " to " + path + ": " + std::strerror(error) +
         " (nothing of it was saved)";
}

// The file a path leads to: itself, or through links (dangling ones too) the file they name.
fs::path target_of(const std::string& path) {
  fs::path p = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p;
}

// Whether a file can be made at `file` (it does not exist yet): tried, then removed.
bool can_create(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno == EEXIST;  // (a leftover temporary file: rewritten when used)
  ::close(fd);
  ::unlink(file.c_str());
  return true;
}

}  // namespace

void check_writable(const std::string& path, const char* option) {
  const auto refuse = [&](const std::string& why) {
    return InputError(std::string(option) + " " + (path.empty() ? "''" : path) + ": " + why);
  };
  if (path.empty()) throw refuse("an empty path");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  const fs::path target = target_of(path);
  if (fs::exists(st)) {
    if (fs::is_directory(st)) throw refuse("names a directory, not a file");
    if (fs::is_character_file(st) || fs::is_fifo(st)) {
      // (Opening a FIFO would wait for a reader; a device is tried.)
      if (::access(path.c_str(), W_OK) != 0) throw refuse("is not writable");
      if (fs::is_character_file(st)) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) throw refuse(std::string("cannot be opened for writing: ") + std::strerror(errno));
        ::close(fd);
      }
      return;
    }
    if (!fs::is_regular_file(st))
      throw refuse("is not a regular file, a character device or a FIFO");
    if (::access(path.c_str(), W_OK) != 0) throw refuse("is not writable");
  } else if (path.back() == '/') {
    throw refuse("names a directory, not a file");
  }
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (!fs::is_directory(dir, ec)) throw refuse("directory " + dir.string() + " does not exist");
  // The file is written beside itself and renamed into place: try making that file (root
  // passes access() on read-only file systems such as /proc).
  if (::access(dir.c_str(), W_OK) != 0 || !can_create(target.string() + ".tmp"))
    throw refuse("directory " + dir.string() + " is not writable");
}

bool is_rewritable_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  return !fs::exists(st) || fs::is_regular_file(st);
}

void write_output(const std::string& path, const std::string& text, const std::string& what) {
  if (!is_rewritable_file(path)) {  // a device or FIFO: write into it, never replace it
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw OutputError(lost(what, path, errno));
    const bool ok = write_all(fd, text);
    const int error = errno;
    ::close(fd);
    if (!ok) throw OutputError(lost(what, path, error));
    return;
  }
  const fs::path target = target_of(path);
  const std::string tmp = target.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw OutputError(lost(what, path, errno));
  bool ok = write_all(fd, text) && ::fsync(fd) == 0;
  int error = errno;
  if (::close(fd) != 0 && ok) ok = false, error = errno;
  if (ok && ::rename(tmp.c_str(), target.c_str()) != 0) ok = false, error = errno;
  if (!ok) {
    ::unlink(tmp.c_str());
    throw OutputError(lost(what, path, error));
  }
}

void append_output(const std::string& path, const std::string& text, const std::string& what) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw OutputError(lost(what, path, errno));
  const bool ok = write_all(fd, text);
  const int error = errno;
  ::close(fd);
  if (!ok) throw OutputError(lost(what, path, error));
}

}  // namespace collnoc::cli

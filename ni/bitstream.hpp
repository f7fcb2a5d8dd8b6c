// A compressed payload as the wire carries it: fields of 0..64 bits packed MSB-first into 32-bit
// words (the first field starts at bit 31 of word 0; an unfilled tail of the last word is zero).
// Codecs write and read whole fields, so the common path is a shift or two per field, never a
// loop over bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace collnoc {

class BitWriter {
 public:
  // Appends the low `n_bits` (0..32) of `value`, most significant first; higher bits are ignored.
  void write(std::uint32_t value, unsigned n_bits) {
    if (n_bits == 0) return;
    if (n_bits > 32) throw std::invalid_argument("BitWriter::write: a field is at most 32 bits");
    if (n_bits < 32) value &= (std::uint32_t{1} << n_bits) - 1;
    const unsigned used = static_cast<unsigned>(bit_count_ % 32);
    if (used == 0) {
      words_.push_back(value << (32 - n_bits));
    } else {
      const unsigned free_bits = 32 - used;
      if (n_bits <= free_bits) {
        words_.back() |= value << (free_bits - n_bits);
      } else {  // the field straddles two words
        const unsigned spill = n_bits - free_bits;
        words_.back() |= value >> spill;
        words_.push_back(value << (32 - spill));
      }
    }
    bit_count_ += n_bits;
  }

  // Appends the low `n_bits` (0..64) of `value`, most significant first.
  void write64(std::uint64_t value, unsigned n_bits) {
    if (n_bits > 64) throw std::invalid_argument("BitWriter::write64: a field is at most 64 bits");
    if (n_bits > 32) {
      write(static_cast<std::uint32_t>(value >> 32), n_bits - 32);
      write(static_cast<std::uint32_t>(value), 32);
    } else {
      write(static_cast<std::uint32_t>(value), n_bits);
    }
  }

  void reserve_bits(std::uint64_t n_bits) {
    words_.reserve(static_cast<std::size_t>((n_bits + 31) / 32));
  }
  void clear() {
    words_.clear();
    bit_count_ = 0;
  }

  std::uint64_t bit_count() const { return bit_count_; }
  const std::vector<std::uint32_t>& words() const { return words_; }

 private:
  std::vector<std::uint32_t> words_;
  std::uint64_t bit_count_ = 0;
};

// Keeps a pointer to the words: they must outlive the reader and not move meanwhile.
class BitReader {
 public:
  // Reads `bit_count` bits from `words` (which must hold at least ceil(bit_count / 32) words).
  BitReader(const std::uint32_t* words, std::uint64_t bit_count)
      : words_(words), bit_count_(bit_count) {}
  // The first `bit_count` bits of `words` (std::invalid_argument if it holds fewer).
  BitReader(const std::vector<std::uint32_t>& words, std::uint64_t bit_count)
      : BitReader(words.data(), bit_count) {
    if (bit_count > 32 * std::uint64_t{words.size()})
      throw std::invalid_argument("BitReader: " + std::to_string(bit_count) + " bits in " +
                                  std::to_string(words.size()) + " words");
  }
  explicit BitReader(const BitWriter& w) : BitReader(w.words().data(), w.bit_count()) {}

  // The next `n_bits` (0..32) as the low bits of the result. Throws std::runtime_error, and
  // consumes nothing, if fewer than `n_bits` remain.
  std::uint32_t read(unsigned n_bits) {
    if (n_bits == 0) return 0;
    if (n_bits > 32) throw std::invalid_argument("BitReader::read: a field is at most 32 bits");
    if (n_bits > remaining_bits()) overrun(n_bits);
    const std::size_t index = static_cast<std::size_t>(position_ / 32);
    const unsigned offset = static_cast<unsigned>(position_ % 32);
    // A 64-bit window over this word and the next; the next word exists only if the field
    // reaches into it (checked above), so it is never read past the stream's end.
    std::uint64_t window = std::uint64_t{words_[index]} << 32;
    if (offset + n_bits > 32) window |= words_[index + 1];
    position_ += n_bits;
    return static_cast<std::uint32_t>((window << offset) >> (64 - n_bits));
  }

  // The next `n_bits` (0..64).
  std::uint64_t read64(unsigned n_bits) {
    if (n_bits <= 32) return read(n_bits);
    if (n_bits > 64) throw std::invalid_argument("BitReader::read64: a field is at most 64 bits");
    if (n_bits > remaining_bits()) overrun(n_bits);  // before consuming the high part
    const std::uint64_t high = read(n_bits - 32);
    return (high << 32) | read(32);
  }

  std::uint64_t position() const { return position_; }
  std::uint64_t bit_count() const { return bit_count_; }
  std::uint64_t remaining_bits() const { return bit_count_ - position_; }

 private:
  [[noreturn]] void overrun(unsigned n_bits) const {
    throw std::runtime_error("BitReader: reading " + std::to_string(n_bits) + " bits at bit " +
                             std::to_string(position_) + " of a " + std::to_string(bit_count_) +
                             "-bit stream");
  }

  const std::uint32_t* words_;
  std::uint64_t bit_count_;
  std::uint64_t position_ = 0;
};

}  // namespace collnoc

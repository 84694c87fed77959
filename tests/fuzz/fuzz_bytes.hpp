#pragma once
// The fuzz input read as values: the next sizeof(T) bytes as a T, zeros past the input's end, so a target
// builds whatever it drives from any bytes at all.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace keff::fuzz {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  template <class T>
  T next() {
    T v{};
    const std::size_t n = std::min(sizeof(T), size_ - std::min(at_, size_));
    if (n > 0) std::memcpy(&v, data_ + at_, n);
    at_ += sizeof(T);
    return v;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace keff::fuzz

// The named operations of core/src/simd/ against the scalar meaning their
// comments state, bit for bit, on special values (signed zeros, infinities,
// NaN, subnormals) and random ones.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "simd/double2.h"
#include "simd/float4.h"
#include "simd/float8.h"
#include "simd/scalar.h"
#include "simd/select.h"

namespace collide::internal {
namespace {

std::uint64_t Bits(double x) { return std::bit_cast<std::uint64_t>(x); }
std::uint32_t Bits(float x) { return std::bit_cast<std::uint32_t>(x); }

std::vector<double> Values() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           -2.5,
                           inf,
                           -inf,
                           std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(),
                           1e308,
                           -1e-308};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int i = 0; i < 20; ++i) v.push_back(u(rng));
  return v;
}

TEST(Simd, ScalarMinMaxAndClampsAreTheirComparisons) {
  for (const double x : Values()) {
    EXPECT_EQ(Bits(Clamp01(x)), Bits(Min(Max(x, 0.0), 1.0)));
    for (const double y : Values()) {
      EXPECT_EQ(Bits(Min(x, y)), Bits(x < y ? x : y));
      EXPECT_EQ(Bits(Max(x, y)), Bits(x > y ? x : y));
      EXPECT_EQ(Bits(MinBranchFree(x, y)), Bits(Min(x, y)));
      EXPECT_EQ(Bits(MaxBranchFree(x, y)), Bits(Max(x, y)));
      if (std::isnan(y)) continue;
      for (const double hi : {y, y + 1.0, y + 0.0, std::numeric_limits<double>::infinity()}) {
        const Vec3 p{x, x, x}, lo{y, y, y}, h{hi, hi, hi};
        EXPECT_EQ(Bits(ClampBranchFree(p, lo, h).x), Bits(Clamp(x, y, hi)));
      }
    }
  }
}

TEST(Simd, SelectsAreTheirTernaries) {
  for (const double x : Values()) {
    EXPECT_EQ(Bits(NegatedIf(true, x)), Bits(-x));
    EXPECT_EQ(Bits(NegatedIf(false, x)), Bits(x));
    EXPECT_EQ(Bits(ZeroIf(true, x)), Bits(0.0));
    EXPECT_EQ(Bits(ZeroIf(false, x)), Bits(x));
    for (const double y : Values()) {
      for (const bool c : {false, true}) EXPECT_EQ(Bits(Select(c, x, y)), Bits(c ? x : y));
      const bool lt = x < y, le = x <= y;
      EXPECT_EQ(Bits(Select(Less(x, y), x, y)), Bits(lt ? x : y));
      EXPECT_EQ(Bits(Select(LessOrEqual(x, y), x, y)), Bits(le ? x : y));
      EXPECT_EQ(Bits(Select(Less(x, y) & LessOrEqual(y, x), x, y)), Bits(lt && y <= x ? x : y));
      EXPECT_EQ(Bits(Select(Less(x, y) | LessOrEqual(y, x), x, y)), Bits(lt || y <= x ? x : y));
      EXPECT_EQ(Bits(ZeroIf(Less(x, y), x)), Bits(lt ? 0.0 : x));
    }
  }
  EXPECT_EQ(Select(true, 3, 5), 3);
  EXPECT_EQ(Select(false, 3, 5), 5);
}

TEST(Simd, Double2IsTwoScalarLanes) {
  const std::vector<double> v = Values();
  for (std::size_t i = 0; i + 3 < v.size(); ++i) {
    const double a[2] = {v[i], v[i + 1]}, b[2] = {v[i + 2], v[i + 3]};
    const Double2 x = LoadPair(a), y = Pair(b[0], b[1]);
    double out[2];
    const auto lanes = [&](Double2 r, auto scalar) {
      Store(out, r);
      for (int k = 0; k < 2; ++k) EXPECT_EQ(Bits(out[k]), Bits(scalar(a[k], b[k])));
    };
    lanes(x + y, [](double p, double q) { return p + q; });
    lanes(x - y, [](double p, double q) { return p - q; });
    lanes(x * y, [](double p, double q) { return p * q; });
    lanes(x / y, [](double p, double q) { return p / q; });
    lanes(-x, [](double p, double) { return -p; });
    lanes(Abs(x), [](double p, double) { return std::fabs(p); });
    lanes(Min(x, y), [](double p, double q) { return p < q ? p : q; });
    lanes(Max(x, y), [](double p, double q) { return p > q ? p : q; });
    lanes(Select(x < y, x, y), [](double p, double q) { return p < q ? p : q; });
    lanes(ZeroIf(x >= y, x), [](double p, double q) { return p >= q ? 0.0 : p; });
    EXPECT_EQ(MoveMask(x > y), (a[0] > b[0]) | (a[1] > b[1]) << 1);
    EXPECT_EQ(MoveMask((x == y) | (x < y)), (a[0] <= b[0]) | (a[1] <= b[1]) << 1);
    if (a[0] >= 0.0 && a[1] >= 0.0) lanes(Sqrt(x), [](double p, double) { return std::sqrt(p); });
    LaneCount count;
    count.Add(x == x);
    count.Add(x < y);
    EXPECT_EQ(count.Total(), (a[0] == a[0]) + (a[1] == a[1]) + (a[0] < b[0]) + (a[1] < b[1]));
  }
}

TEST(Simd, FloatLanesAreScalarLanes) {
  alignas(16) const float a[8] = {0.0f, -0.0f, 1.5f, -2.0f, 3.0f, std::numeric_limits<float>::infinity(),
                                  7.0f, -1e-3f};
  alignas(16) const float b[8] = {
      -0.0f, 0.0f, 2.5f, -2.0f, -3.0f, 1.0f, std::numeric_limits<float>::quiet_NaN(), 5.0f};
  const Float8 x = Load8(a), y = Load8(b);
  float out[8];
  Store8(out, Min(x, y) * (x - y) + Max(x, y));
  for (int k = 0; k < 8; ++k) {
    const float m = a[k] < b[k] ? a[k] : b[k], n = a[k] > b[k] ? a[k] : b[k];
    EXPECT_EQ(Bits(out[k]), Bits(m * (a[k] - b[k]) + n));
  }
  int expected = 0;
  for (int k = 0; k < 8; ++k) expected |= ((a[k] <= b[k]) & (a[k] >= -b[k])) << k;
  EXPECT_EQ(MoveMask((x <= y) & (x >= Splat8(0.0f) - y)), expected);

  alignas(16) const float c[4] = {b[2], b[3], b[4], b[5]};  // LoadAligned needs 16-byte alignment
  const Float4 p = LoadAligned(a), q = LoadAligned(c);
  EXPECT_EQ(Bits(SumXYZ(p * RotateXYZ(p))), Bits((a[0] * a[1] + a[1] * a[2]) + a[2] * a[0]));
  alignas(16) float f[4];
  StoreAligned(f, Min(p, q) + Max(p, q) - Splat4(1.0f));
  for (int k = 0; k < 4; ++k) {
    const float m = a[k] < b[k + 2] ? a[k] : b[k + 2], n = a[k] > b[k + 2] ? a[k] : b[k + 2];
    EXPECT_EQ(Bits(f[k]), Bits(m + n - 1.0f));
  }
  alignas(16) std::int32_t t[4];
  TruncateToInt32(Max(Splat4(-2.7f) + Zero4(), Splat4(-3.0f)), t);
  EXPECT_EQ(t[0], -2);
  EXPECT_EQ(X(Splat4(4.0f)), 4.0f);
}

}  // namespace
}  // namespace collide::internal

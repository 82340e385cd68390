// Embree 3 as the physical-limit anchor for mesh rays: float, one thread
// (rtcNewDevice("threads=1"), which picks the widest ISA the CPU has: AVX-512
// on the reference machine; "isa=sse2" pins collide's own SSE2 baseline), a static scene of one triangle
// geometry, rtcIntersect1 for closest hits and rtcOccluded1 for line of sight. Its memory is what the device
// reports through its memory monitor.
#include <embree3/rtcore.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "mesh_peers.h"

namespace collide::bench {
namespace {

std::atomic<long long> embree_bytes{0};
bool Monitor(void*, ssize_t bytes, bool) {
  embree_bytes += bytes;
  return true;
}

class Embree : public MeshPeer {
 public:
  Embree(const MeshData& m, const char* config) {
    device_ = rtcNewDevice(config);
    if (!device_) std::abort();
    rtcSetDeviceMemoryMonitorFunction(device_, Monitor, nullptr);
    const long long before = embree_bytes;
    scene_ = rtcNewScene(device_);
    RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
    auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                          3 * sizeof(float), m.vertices.size()));
    for (std::size_t i = 0; i < m.vertices.size(); ++i) {
      v[3 * i] = static_cast<float>(m.vertices[i].x);
      v[3 * i + 1] = static_cast<float>(m.vertices[i].y);
      v[3 * i + 2] = static_cast<float>(m.vertices[i].z);
    }
    auto* t = static_cast<unsigned*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                                             3 * sizeof(unsigned), m.triangles.size()));
    for (std::size_t i = 0; i < m.triangles.size(); ++i) {
      for (int k = 0; k < 3; ++k) t[3 * i + k] = m.triangles[i][k];
    }
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene_, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene_);
    bytes_ = static_cast<std::size_t>(embree_bytes - before);
    rtcInitIntersectContext(&context_);
  }
  ~Embree() override {
    rtcReleaseScene(scene_);
    rtcReleaseDevice(device_);
  }

  double Closest(const Ray& r) override {
    RTCRayHit h;
    Fill(r, h.ray);
    h.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene_, &context_, &h);
    return h.hit.geomID == RTC_INVALID_GEOMETRY_ID ? -1.0 : h.ray.tfar;
  }
  bool Occluded(const Ray& r) override {
    RTCRay ray;
    Fill(r, ray);
    rtcOccluded1(scene_, &context_, &ray);
    return ray.tfar < 0.0f;  // set to -inf on a hit.
  }
  std::size_t memory_bytes() const override { return bytes_; }

 private:
  static void Fill(const Ray& r, RTCRay& ray) {
    ray.org_x = static_cast<float>(r.origin.x);
    ray.org_y = static_cast<float>(r.origin.y);
    ray.org_z = static_cast<float>(r.origin.z);
    ray.dir_x = static_cast<float>(r.direction.x);
    ray.dir_y = static_cast<float>(r.direction.y);
    ray.dir_z = static_cast<float>(r.direction.z);
    ray.tnear = 0.0f;
    ray.tfar = r.max_distance == kInfinity ? std::numeric_limits<float>::infinity()
                                           : static_cast<float>(r.max_distance);
    ray.time = 0.0f;
    ray.mask = ~0u;
    ray.id = 0;
    ray.flags = 0;
  }

  RTCDevice device_;
  RTCScene scene_;
  RTCIntersectContext context_;
  std::size_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<MeshPeer> MakeEmbree(const MeshData& mesh) {
  return std::make_unique<Embree>(mesh, "threads=1");
}
std::unique_ptr<MeshPeer> MakeEmbreeSse2(const MeshData& mesh) {
  return std::make_unique<Embree>(mesh, "threads=1,isa=sse2");
}

}  // namespace collide::bench

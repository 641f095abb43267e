// profile::scope: begin at construction, end at destruction (an exception included), so
// that begin and end always pair. Made only where profile::active() said yes.
#pragma once

#include <funcmesh/core/loop_label.hpp>
#include <funcmesh/profile/hooks.hpp>

namespace funcmesh::profile {

class scope {
 public:
  explicit scope(const region& r) : region_(r) { begin(region_); }
  explicit scope(const exec::loop_label& label) : scope(of(label)) {}
  ~scope() { end(region_); }
  scope(const scope&) = delete;
  scope& operator=(const scope&) = delete;

  const region& where() const { return region_; }

 private:
  region region_;
};

}  // namespace funcmesh::profile

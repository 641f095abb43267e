// paged_function_base: names for messages.
#include <funcmesh/paged/paged_function_base.hpp>

#include <utility>

namespace funcmesh {

namespace {
std::string description_of(const std::string& name) {
  return name.empty() ? std::string("an unnamed paged grid function")
                      : "paged grid function '" + name + "'";
}
}  // namespace

paged_function_base::paged_function_base(std::string name, std::size_t element_size)
    : name_(std::move(name)), description_(description_of(name_)), element_size_(element_size) {}

void paged_function_base::set_name(std::string name) {
  name_ = std::move(name);
  description_ = description_of(name_);
}

}  // namespace funcmesh

// Grid kinds: every grid function and expression carries a tag (cells, faces, nodes),
// and combining two different kinds fails to compile. any_tag (pure values, indices)
// combines with every kind.
#pragma once

#include <type_traits>

namespace funcmesh {

struct cells {};
struct faces {};
struct nodes {};
struct any_tag {};

namespace detail {
template <class A, class B>
struct common_tag {
  static_assert(std::is_same_v<A, B>,
                "funcmesh: this expression combines grid functions of different kinds "
                "(for example cells with faces); map one kind onto the other first");
  using type = A;
};
template <class B>
struct common_tag<any_tag, B> {
  using type = B;
};
template <class A>
struct common_tag<A, any_tag> {
  using type = A;
};
template <>
struct common_tag<any_tag, any_tag> {
  using type = any_tag;
};
}  // namespace detail

template <class... Tags>
struct common_tag_of {
  using type = any_tag;
};
template <class First, class... Rest>
struct common_tag_of<First, Rest...> {
  using type = typename detail::common_tag<First, typename common_tag_of<Rest...>::type>::type;
};
template <class... Tags>
using common_tag_t = typename common_tag_of<Tags...>::type;

}  // namespace funcmesh

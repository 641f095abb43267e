// pack<T...>: a minimal tuple that stays trivially copyable when its members are
// (std::tuple is not, because of its assignment operators), usable in device code.
#pragma once

#include <cstddef>
#include <utility>

#include <funcmesh/core/device_macros.hpp>

namespace funcmesh::detail {

template <std::size_t I, class T>
struct pack_leaf {
  T value;
};

template <class Indices, class... T>
struct pack_base;
template <std::size_t... I, class... T>
struct pack_base<std::index_sequence<I...>, T...> : pack_leaf<I, T>... {};

// An aggregate: built by brace initialization, so members need no default constructor
// (capturing lambdas have none).
template <class... T>
struct pack : pack_base<std::index_sequence_for<T...>, T...> {};

template <std::size_t... I, class... T>
FUNCMESH_DEVICE constexpr pack<T...> make_pack_indexed(std::index_sequence<I...>, T... values) {
  return pack<T...>{pack_base<std::index_sequence<I...>, T...>{pack_leaf<I, T>{values}...}};
}

template <class... T>
FUNCMESH_DEVICE constexpr pack<T...> make_pack(T... values) {
  return make_pack_indexed(std::index_sequence_for<T...>{}, values...);
}

template <std::size_t I, class T>
FUNCMESH_DEVICE constexpr const T& get(const pack_leaf<I, T>& leaf) {
  return leaf.value;
}

}  // namespace funcmesh::detail

// The MPI step of the global reductions: user-defined MPI_Ops for ordered min/max and for
// exact_sum words, created once on first use and freed when MPI_Finalize deletes an
// attribute cached on MPI_COMM_SELF (MPI deletes those first, while MPI still works).
#include <funcmesh/comm/global_reduce.hpp>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh {

namespace {

std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// detail::ordered_minimum/maximum made exactly commutative: between two NaNs the one with
// the smaller bit pattern wins, so every rank ends with the same NaN whatever the order
// in which MPI's reduction tree combines contributions.
double global_minimum(double a, double b) {
  if (a != a && b != b) return bits_of(a) <= bits_of(b) ? a : b;
  return detail::ordered_minimum{}(a, b);
}
double global_maximum(double a, double b) {
  if (a != a && b != b) return bits_of(a) <= bits_of(b) ? a : b;
  return detail::ordered_maximum{}(a, b);
}

// MPI user functions: inout[k] = in[k] op inout[k] for len elements of the datatype the
// op was created for (MPI_DOUBLE, the pair type or the exact-sum type).
void minimum_op(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int k = 0; k < *len; ++k) b[k] = global_minimum(a[k], b[k]);
}
void maximum_op(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int k = 0; k < *len; ++k) b[k] = global_maximum(a[k], b[k]);
}
void minmax_op(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int k = 0; k < 2 * *len; k += 2) {
    b[k] = global_minimum(a[k], b[k]);
    b[k + 1] = global_maximum(a[k + 1], b[k + 1]);
  }
}
void exact_sum_op(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::int64_t*>(in);
  auto* b = static_cast<std::int64_t*>(inout);
  for (int k = 0; k < *len; ++k) {
    const std::ptrdiff_t offset = std::ptrdiff_t{k} * exact_sum::word_count;
    exact_sum::merge_words(a + offset, b + offset);
  }
}

// Derived types keep a pair or an exact sum whole: MPI may split a reduction into pieces,
// but only at element boundaries of the datatype passed.
struct reduction_handles {
  MPI_Datatype pair_type = MPI_DATATYPE_NULL;
  MPI_Datatype exact_type = MPI_DATATYPE_NULL;
  MPI_Op minimum = MPI_OP_NULL;
  MPI_Op maximum = MPI_OP_NULL;
  MPI_Op minmax = MPI_OP_NULL;
  MPI_Op exact = MPI_OP_NULL;
};

// Called by MPI_Finalize (or if someone frees the attribute); the ops are commutative.
int free_handles(MPI_Comm, int keyval, void* attribute, void*) {
  auto* h = static_cast<reduction_handles*>(attribute);
  MPI_Op_free(&h->minimum);
  MPI_Op_free(&h->maximum);
  MPI_Op_free(&h->minmax);
  MPI_Op_free(&h->exact);
  MPI_Type_free(&h->pair_type);
  MPI_Type_free(&h->exact_type);
  MPI_Comm_free_keyval(&keyval);
  return MPI_SUCCESS;
}

const reduction_handles& handles() {
  static reduction_handles h;
  static std::once_flag created;
  std::call_once(created, [] {
    check_mpi(MPI_Type_contiguous(2, MPI_DOUBLE, &h.pair_type), "MPI_Type_contiguous");
    check_mpi(MPI_Type_commit(&h.pair_type), "MPI_Type_commit");
    check_mpi(MPI_Type_contiguous(exact_sum::word_count, MPI_INT64_T, &h.exact_type),
              "MPI_Type_contiguous");
    check_mpi(MPI_Type_commit(&h.exact_type), "MPI_Type_commit");
    check_mpi(MPI_Op_create(&minimum_op, 1, &h.minimum), "MPI_Op_create");
    check_mpi(MPI_Op_create(&maximum_op, 1, &h.maximum), "MPI_Op_create");
    check_mpi(MPI_Op_create(&minmax_op, 1, &h.minmax), "MPI_Op_create");
    check_mpi(MPI_Op_create(&exact_sum_op, 1, &h.exact), "MPI_Op_create");
    int keyval = MPI_KEYVAL_INVALID;
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &free_handles, &keyval, nullptr),
              "MPI_Comm_create_keyval");
    check_mpi(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &h), "MPI_Comm_set_attr", MPI_COMM_SELF);
  });
  return h;
}

template <class T>
T allreduce(MPI_Comm comm, T value, MPI_Datatype type, MPI_Op op, const char* call) {
  T result{};
  check_mpi(MPI_Allreduce(&value, &result, 1, type, op, comm), call, comm);
  return result;
}

}  // namespace

double allreduce_sum(MPI_Comm comm, double value) {
  return allreduce(comm, value, MPI_DOUBLE, MPI_SUM, "MPI_Allreduce (sum)");
}
long long allreduce_sum(MPI_Comm comm, long long value) {
  return allreduce(comm, value, MPI_LONG_LONG, MPI_SUM, "MPI_Allreduce (sum)");
}
int allreduce_sum(MPI_Comm comm, int value) {
  return allreduce(comm, value, MPI_INT, MPI_SUM, "MPI_Allreduce (sum)");
}

double allreduce_min(MPI_Comm comm, double value) {
  return allreduce(comm, value, MPI_DOUBLE, handles().minimum, "MPI_Allreduce (ordered min)");
}
long long allreduce_min(MPI_Comm comm, long long value) {
  return allreduce(comm, value, MPI_LONG_LONG, MPI_MIN, "MPI_Allreduce (min)");
}
int allreduce_min(MPI_Comm comm, int value) {
  return allreduce(comm, value, MPI_INT, MPI_MIN, "MPI_Allreduce (min)");
}

double allreduce_max(MPI_Comm comm, double value) {
  return allreduce(comm, value, MPI_DOUBLE, handles().maximum, "MPI_Allreduce (ordered max)");
}
long long allreduce_max(MPI_Comm comm, long long value) {
  return allreduce(comm, value, MPI_LONG_LONG, MPI_MAX, "MPI_Allreduce (max)");
}
int allreduce_max(MPI_Comm comm, int value) {
  return allreduce(comm, value, MPI_INT, MPI_MAX, "MPI_Allreduce (max)");
}

minmax_result<double> allreduce_minmax(MPI_Comm comm, minmax_result<double> value) {
  const reduction_handles& h = handles();
  double local[2] = {value.min, value.max};
  double global[2] = {};
  check_mpi(MPI_Allreduce(local, global, 1, h.pair_type, h.minmax, comm),
            "MPI_Allreduce (ordered minmax)", comm);
  return {global[0], global[1]};
}

exact_sum allreduce_exact(MPI_Comm comm, const exact_sum& value) {
  const reduction_handles& h = handles();
  std::int64_t local[exact_sum::word_count];
  std::int64_t global[exact_sum::word_count] = {};
  value.to_words(local);
  check_mpi(MPI_Allreduce(local, global, 1, h.exact_type, h.exact, comm),
            "MPI_Allreduce (exact sum)", comm);
  return exact_sum::from_words(global);
}

namespace detail {
void refuse_halo_in_global_reduction(const reduce_options& options, const char* what) {
  if (options.over.what() == iteration_space::kind::owned_and_halo) {
    throw error(mpi::rank_prefix() + "funcmesh::" + what +
                ": over = owned_and_halo would count halo copies of other ranks' values "
                "twice; global reductions run over owned values (the default)");
  }
}
}  // namespace detail

}  // namespace funcmesh

namespace funcmesh::detail {

void refuse_no_layout(const char* call) {
  throw error(std::string(call) +
              ": the expression reads no distributed function, so it names no ranks to "
              "reduce over: pass the layout first (" +
              call + "(layout, e))");
}

}  // namespace funcmesh::detail

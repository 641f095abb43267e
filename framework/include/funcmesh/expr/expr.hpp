// Grid expressions in one include: functions (_(), currying, composition), Functor /
// Applicative / Monad, expression nodes and operators, grid functions, assignment.
#pragma once

#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/components.hpp>
#include <funcmesh/expr/gather_scatter.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/expr/iteration_space.hpp>
#include <funcmesh/expr/monad.hpp>
#include <funcmesh/expr/operators.hpp>
#include <funcmesh/expr/tags.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/func/compose.hpp>
#include <funcmesh/func/curry.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/func/maybe.hpp>
#include <funcmesh/func/typeclasses.hpp>

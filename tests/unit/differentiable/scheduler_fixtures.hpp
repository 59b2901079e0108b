// The method registry with "gaus" in it, shared by the end-to-end tests.
#pragma once

#include <gaus/differentiable/gaus_scheduler.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::differentiable::fixture {

inline const MethodRegistry& gausRegistry() {
  static const MethodRegistry registry = [] {
    MethodRegistry methods;
    registerGausMethods(methods);
    return methods;
  }();
  return registry;
}

}  // namespace gaus::differentiable::fixture

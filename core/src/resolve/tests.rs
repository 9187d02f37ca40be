//! Native tests of the resolver: every route and fall-through on recorded bodies.

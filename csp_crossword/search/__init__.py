"""The fill problem: the networkx constraint graph of slots and crossings, the problem built from
it, arc-consistency propagation (pure Python and compiled) and the look-ahead of candidates."""

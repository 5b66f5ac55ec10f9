"""What a grid admits beyond one fill: proofs of unsatisfiability with the slots to blame
(``checking``, ``unsat_core``) and exact counts of fills (``counting``)."""

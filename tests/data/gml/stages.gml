# A stage problem by hand (tests/integration/test_cli_heuristic.cpp): weights a 5, b 3, c 2,
# d 0; a -> b and b -> d carry communication (parameter > 0).
graph [
  directed 1
  node [ id 0 label "a" parameter 5 ]
  node [ id 1 label "b" parameter 3 ]
  node [ id 2 label "c" parameter 2 ]
  node [ id 3 label "d" parameter 0 ]
  edge [ source 0 target 1 parameter 20000 ]
  edge [ source 0 target 2 parameter 0 ]
  edge [ source 1 target 3 parameter 30000 ]
  edge [ source 2 target 3 parameter 0 ]
]

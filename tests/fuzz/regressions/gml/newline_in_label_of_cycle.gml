# Three nodes in networkx's GML layout; node 7 has no label and is named by its id.
graph [
  directed 1
  node [ id 0 label "a]
  node [ id 7 parameter 2.5 ]
  edge [ source 0 target 1 parameter 30000 ]
  edge [ source 1 target 7 parameter " parameter 5 ]
  node [ id 1 label "b" parameter 0 ]
  node [ id 7 parameter 2.5 ]
  edge [ source 0 target 0 parameter 30000 ]
  edge [ source 1 target 7 parameter 0 ]
  edge [ source 0 target 7 name "2" ]
]

graph [
  directed 1
  node [ id 0 label "a" ]
  node [ id 1 label "b
c" ]
  edge [ source 0 target 1 ]
]

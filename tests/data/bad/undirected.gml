graph [
  directed 0
  node [ id 0 label "a" ]
]

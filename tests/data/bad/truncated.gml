graph [
  directed 1
  node [
    id 0
    label "a"

data "joinit_groups" "all" {}

output "group_names" {
  value = sort([for g in data.joinit_groups.all.groups : g.name if g.name != null])
}

output "group_names_by_id" {
  value = { for g in data.joinit_groups.all.groups : g.id => g.name }
}

# The API does not document the group record; raw_json is always set, so its
# fields can be listed and read with jsondecode.
output "group_record_fields" {
  value = sort(distinct(flatten([
    for g in data.joinit_groups.all.groups : keys(jsondecode(g.raw_json))
  ])))
}

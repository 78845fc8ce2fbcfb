output "planned" {
  description = "The object IDs of the Entra users the group holds after the apply, sorted: one azuread_group_member each. The plan stops first if there are fewer than min_members, or if more than max_removals would go. Those the group holds already (planned minus to_add) are what the root's import block adopts."
  value       = module.sync.planned
}

output "to_add" {
  description = "The object IDs this plan adds to the group, sorted."
  value       = module.sync.to_add
}

output "to_remove" {
  description = "The group's direct members that are not a Join It member found in Entra, sorted: members whose membership ended are removed; members this configuration never added or imported (added by hand, nested groups, service principals) are counted here, and by max_removals, but stay."
  value       = module.sync.to_remove
}

output "not_found" {
  description = "The Join It addresses (lower-cased) that are no Entra user's mail. Personal data: a root should output length(module.x.not_found), not the list."
  value       = local.not_found
}

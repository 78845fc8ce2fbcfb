output "planned" {
  description = "The Join It members the group should hold after the apply (keep_members besides), sorted, each as Google spells them when the group holds them already. Addresses: a root should output its length()."
  value       = module.sync.planned
}

output "to_add" {
  description = "The Join It members this plan adds to the group, sorted. Addresses: a root should output its length()."
  value       = module.sync.to_add
}

output "to_remove" {
  description = "The group's members this plan removes, as Google spells them, sorted (keep_members never are). Addresses: a root should output its length()."
  value       = module.sync.to_remove
}

output "not_found" {
  description = "The Join It addresses the group cannot hold: those outside member_domains, sorted. Addresses: a root should output its length(), so that no plan log holds personal data."
  value       = sort(setsubtract(module.sync.members, local.in_domains))
}

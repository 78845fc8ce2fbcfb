output "planned" {
  description = "The Slack user ids the group should hold after the apply, sorted."
  value       = module.sync.planned
}

output "to_add" {
  description = "The Slack user ids this plan adds to the group, sorted."
  value       = module.sync.to_add
}

output "to_remove" {
  description = "The Slack user ids this plan removes from the group, sorted."
  value       = module.sync.to_remove
}

output "not_found" {
  description = "Always empty, kept so that a root treats every sync module alike (output its length()): a Join It address with no Slack account stops the plan at its lookup (\"not found <address>: users_not_found\"), before this output is known. Give that member a Slack account under that address, or correct the address in Join It."
  value       = []
}

output "planned" {
  description = "The team's members after the apply: GitHub usernames, sorted, lower-cased as github_team_members keeps them. A plan that would hold fewer than min_members, or remove more than max_removals, stops here (the guards of member-sync)."
  value       = sort([for u in module.sync.planned : lower(u)])
}

output "to_add" {
  description = "Usernames this plan adds to the team, sorted. A list of usernames: a root should output length() of it."
  value       = module.sync.to_add
}

output "to_remove" {
  description = "Usernames this plan removes from the team, as GitHub spells them, sorted. A list of usernames: a root should output length() of it."
  value       = module.sync.to_remove
}

output "members_without_username" {
  description = "The _id of each membership read whose answer to username_question is missing or not a GitHub username (a space in it, a URL): ask them, or fix the answer in Join It. Ids, not addresses or usernames, so a plan log holds no personal data."
  value       = sort([for id, u in local.usernames : id if !contains(keys(local.usable), id)])
}

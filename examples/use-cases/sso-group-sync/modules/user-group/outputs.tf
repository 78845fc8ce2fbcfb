output "name" {
  description = "Name of the group."
  value       = terraform_data.group.output.name
}

output "members" {
  description = "Sorted, lower-cased member e-mail addresses."
  value       = terraform_data.group.output.members
}

output "member_count" {
  description = "Number of members."
  value       = length(local.members)
}

# Keeps the GitHub team "members" equal to the active Join It members who
# gave their GitHub username, through examples/modules/github-team. In a
# copy, point source at where the module is.
#
# The providers read their settings from the environment: JOINIT_BASE_URL
# and JOINIT_ACCESS_TOKEN, and GITHUB_TOKEN (a token with members: write on
# the organization).

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    github = {
      source  = "integrations/github"
      version = "~> 6.13"
    }
  }
}

provider "joinit" {}

provider "github" {
  owner = "acme" # the GitHub organization; GITHUB_TOKEN with members: write
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the team holds: a record of another stops the plan."
  type        = string
}

module "github_team" {
  source          = "../../modules/github-team"
  team_slug       = "members"
  min_members     = 50
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

# Counts, not lists: a long list as a root output is costly to plan.
output "members" {
  value = length(module.github_team.members)
}

output "to_add" {
  value = length(module.github_team.to_add)
}

output "to_remove" {
  value = length(module.github_team.to_remove)
}

# The proxy on ECS Anywhere hosts (launch type EXTERNAL, bridge network mode): it routes to containers of the
# "edge" cluster, resolving managed instances (mi-...) through SSM, and reads Consul Connect services with a token
# kept in SSM Parameter Store.

provider "aws" {
  region = "us-east-1"
}

variable "consul_http_addr" {
  description = "host:port of the Consul agent as containers on the hosts reach it (in bridge mode not 127.0.0.1, which is the container itself)."
  type        = string
}

variable "consul_token_parameter_arn" {
  description = "ARN of the SSM SecureString parameter holding the proxy's Consul ACL token."
  type        = string
}

data "aws_ecs_cluster" "edge" {
  cluster_name = "edge"
}

module "proxy" {
  source = "../.."

  name             = "edge-proxy"
  cluster_arn      = data.aws_ecs_cluster.edge.arn
  launch_type      = "EXTERNAL"
  image            = "123456789012.dkr.ecr.us-east-1.amazonaws.com/proxy:1.0.0"
  desired_count    = 1
  watch_clusters   = ["edge"]
  ecs_anywhere     = true
  consul_http_addr = var.consul_http_addr
  consul_token_arn = var.consul_token_parameter_arn
  consul_connect   = true
}

output "discovery_actions" {
  description = "What the proxy may call (ssm:DescribeInstanceInformation included: ecs_anywhere)."
  value       = module.proxy.discovery_actions
}

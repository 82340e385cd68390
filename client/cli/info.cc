// `collide info`: what GetServerInfo says about the replica that answers.
#include <iostream>

#include "commands.h"

namespace collide::cli {

int RunInfo() {
  absl::StatusOr<Client> client = MakeClient();
  if (!client.ok()) {
    std::cerr << DescribeStatus(client.status()) << "\n";
    return 1;
  }
  const absl::StatusOr<ServerInfo> info = client->GetServerInfo();
  if (!info.ok()) {
    std::cerr << DescribeStatus(info.status()) << "\n";
    return 1;
  }
  std::cout << "version:                   " << info->version << "\n"
            << "replica:                   " << info->replica << "\n"
            << "max_items_per_request:     " << info->max_items_per_request << "\n"
            << "max_receive_message_bytes: " << info->max_receive_message_bytes << "\n"
            << "worker_threads:            " << info->worker_threads << "\n"
            << "requests_served:           " << info->requests_served << "\n"
            << "items_served:              " << info->items_served << "\n";
  return 0;
}

}  // namespace collide::cli

package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.util.Map;

import kr.c4i.gateway.pki.SiteDirectory;

/**
 * One site's PKI as the harness hands it to the site's processes: the runner creates it in the run's work directory
 * ({@code experiment.HarnessPki}), the deployment plans only name its files.
 *
 * @param directory the site's PKI directory ({@link SiteDirectory}'s layout; with the DDS Security documents when
 *        its nodes run DDS)
 * @param authorityCertificate the site authority's certificate
 * @param holders node or gateway id to its identity's files
 */
public record SitePki(Path directory, Path authorityCertificate, Map<String, SiteDirectory.HolderFiles> holders) {

    public SitePki {
        holders = Map.copyOf(holders);
    }

    /** The files of a holder the site issued an identity to. */
    public SiteDirectory.HolderFiles holder(String id) {
        SiteDirectory.HolderFiles files = holders.get(id);
        if (files == null) {
            throw new IllegalArgumentException("no identity issued to " + id + " in " + directory);
        }
        return files;
    }
}

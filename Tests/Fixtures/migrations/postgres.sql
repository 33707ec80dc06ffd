-- v1: reports, joined trails, manifests, reprocess cursor
CREATE FUNCTION crashtrail_instant(value TEXT) RETURNS TIMESTAMPTZ LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN value::TIMESTAMPTZ;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
CREATE TABLE report (
    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    format TEXT COLLATE "C" NOT NULL,
    sha256 TEXT COLLATE "C" NOT NULL,
    bundleID TEXT COLLATE "C",
    appVersion TEXT COLLATE "C",
    appBuild TEXT COLLATE "C",
    osName TEXT COLLATE "C",
    osVersion TEXT COLLATE "C",
    device TEXT COLLATE "C",
    time TEXT COLLATE "C",
    exceptionType TEXT COLLATE "C",
    exceptionCode TEXT COLLATE "C",
    exceptionSignal TEXT COLLATE "C",
    exceptionReason TEXT COLLATE "C",
    frames TEXT COLLATE "C" NOT NULL,
    signature TEXT COLLATE "C" NOT NULL,
    trailSource TEXT COLLATE "C" NOT NULL,
    trailSteps BIGINT,
    trailError TEXT COLLATE "C",
    trail TEXT COLLATE "C",
    pid BIGINT,
    launchTime BIGINT,
    source TEXT COLLATE "C" NOT NULL,
    payload BYTEA NOT NULL,
    payloadSize BIGINT NOT NULL
);
CREATE INDEX report_signature ON report(signature);
CREATE INDEX report_time ON report(time);
CREATE INDEX report_join ON report(bundleID, pid) WHERE trailSource = 'missing';
CREATE INDEX report_sha256 ON report(sha256);
CREATE TABLE joinedTrail (
    id TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES report(id) ON DELETE CASCADE,
    steps BIGINT NOT NULL,
    trail TEXT COLLATE "C" NOT NULL
);
CREATE VIEW reportWithTrail AS
    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
        r.frames, r.signature,
        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
CREATE TABLE manifest (
    dictionaryID TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    app TEXT COLLATE "C" NOT NULL,
    source TEXT COLLATE "C" NOT NULL,
    text TEXT COLLATE "C" NOT NULL,
    seq BIGSERIAL NOT NULL
);
CREATE TABLE reprocessCursor (
    job TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    lastID TEXT COLLATE "C" NOT NULL
);

-- v2: trail dictionary
ALTER TABLE report ADD COLUMN trailDictionary TEXT COLLATE "C";
ALTER TABLE joinedTrail ADD COLUMN dictionary TEXT COLLATE "C";
DROP VIEW reportWithTrail;
CREATE VIEW reportWithTrail AS
    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
        r.frames, r.signature,
        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
        CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;

-- v3: inferred trails
DROP INDEX report_join;
CREATE INDEX report_join ON report(bundleID, pid) WHERE trailSource IN ('missing', 'inferred');

-- v4: exception backtrace
ALTER TABLE report ADD COLUMN exceptionFrames TEXT COLLATE "C" NOT NULL DEFAULT '[]';
DROP VIEW reportWithTrail;
CREATE VIEW reportWithTrail AS
    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
        r.frames, r.exceptionFrames, r.signature,
        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
        CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;

-- v5: report details, screen paths, listing indexes
ALTER TABLE report ADD COLUMN details TEXT COLLATE "C" NOT NULL DEFAULT '{}';
ALTER TABLE report ADD COLUMN screenPath TEXT COLLATE "C";
ALTER TABLE report ADD COLUMN pathManifest TEXT COLLATE "C";
ALTER TABLE joinedTrail ADD COLUMN screenPath TEXT COLLATE "C";
ALTER TABLE joinedTrail ADD COLUMN pathManifest TEXT COLLATE "C";
DROP VIEW reportWithTrail;
CREATE VIEW reportWithTrail AS
    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
        r.frames, r.exceptionFrames, r.details, r.signature,
        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
        CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
        CASE WHEN j.id IS NULL THEN r.screenPath ELSE j.screenPath END AS screenPath,
        CASE WHEN j.id IS NULL THEN r.pathManifest ELSE j.pathManifest END AS pathManifest,
        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
DROP INDEX report_signature;
DROP INDEX report_time;
CREATE INDEX report_recent ON report((time IS NULL), time DESC, id);
CREATE INDEX report_group_recent ON report(signature, (time IS NULL), time DESC, id);

-- v6: projects, payloads compressed once
ALTER TABLE report ALTER COLUMN payload SET STORAGE EXTERNAL;
CREATE TABLE project (
    id BIGINT PRIMARY KEY NOT NULL,
    name TEXT COLLATE "C" NOT NULL UNIQUE,
    key TEXT COLLATE "C" NOT NULL UNIQUE,
    revoked INTEGER NOT NULL DEFAULT 0
);

-- v7: group counts kept as reports arrive
CREATE TABLE groupCount (signature TEXT COLLATE "C" NOT NULL, reports BIGINT NOT NULL, withTrail BIGINT NOT NULL, inferred BIGINT NOT NULL);
CREATE INDEX groupCount_signature ON groupCount(signature);
CREATE TABLE groupVersionCount (signature TEXT COLLATE "C" NOT NULL, known INTEGER NOT NULL, version TEXT COLLATE "C" NOT NULL, reports BIGINT NOT NULL);
CREATE INDEX groupVersionCount_signature ON groupVersionCount(signature);
CREATE TABLE groupDayCount (signature TEXT COLLATE "C" NOT NULL, day TEXT COLLATE "C" NOT NULL, reports BIGINT NOT NULL);
CREATE INDEX groupDayCount_signature ON groupDayCount(signature);
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT signature, appVersion, time, trailSource AS src, 1 AS s FROM reportWithTrail) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), SUM(s)
FROM (SELECT signature, appVersion, time, trailSource AS src, 1 AS s FROM reportWithTrail) c GROUP BY 1, 2, 3 HAVING SUM(s) <> 0;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, SUM(s)
FROM (SELECT signature, appVersion, time, trailSource AS src, 1 AS s FROM reportWithTrail) c GROUP BY 1, 2 HAVING SUM(s) <> 0;
CREATE FUNCTION crashtrail_count_report_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), SUM(s)
FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY 1, 2, 3 HAVING SUM(s) <> 0;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, SUM(s)
FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY 1, 2 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_count_report_insert AFTER INSERT ON report REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_count_report_insert();
CREATE FUNCTION crashtrail_count_report_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT OLD.id AS id, OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time, OLD.trailSource AS trailSource) x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), SUM(s)
FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT OLD.id AS id, OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time, OLD.trailSource AS trailSource) x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY 1, 2, 3 HAVING SUM(s) <> 0;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, SUM(s)
FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT OLD.id AS id, OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time, OLD.trailSource AS trailSource) x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY 1, 2 HAVING SUM(s) <> 0;
    RETURN OLD;
END
$$;
CREATE TRIGGER crashtrail_count_report_delete BEFORE DELETE ON report FOR EACH ROW EXECUTE FUNCTION crashtrail_count_report_delete();
CREATE FUNCTION crashtrail_count_report_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, -1 AS s
FROM old_rows x LEFT JOIN joinedTrail j ON j.id = x.id
UNION ALL
SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), SUM(s)
FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, -1 AS s
FROM old_rows x LEFT JOIN joinedTrail j ON j.id = x.id
UNION ALL
SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY 1, 2, 3 HAVING SUM(s) <> 0;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, SUM(s)
FROM (SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, -1 AS s
FROM old_rows x LEFT JOIN joinedTrail j ON j.id = x.id
UNION ALL
SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS src, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c GROUP BY 1, 2 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_count_report_update AFTER UPDATE ON report REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_count_report_update();
CREATE FUNCTION crashtrail_count_joined_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT r.signature, r.appVersion, r.time, r.trailSource AS src, -1 AS s
FROM new_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.appVersion, r.time, 'joined' AS src, 1 AS s
FROM new_rows x JOIN report r ON r.id = x.id) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_count_joined_insert AFTER INSERT ON joinedTrail REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_count_joined_insert();
CREATE FUNCTION crashtrail_count_joined_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT r.signature, r.appVersion, r.time, 'joined' AS src, -1 AS s
FROM old_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.appVersion, r.time, r.trailSource AS src, 1 AS s
FROM old_rows x JOIN report r ON r.id = x.id) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_count_joined_delete AFTER DELETE ON joinedTrail REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_count_joined_delete();
CREATE FUNCTION crashtrail_count_joined_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END), SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) FROM (SELECT r.signature, r.appVersion, r.time, 'joined' AS src, -1 AS s
FROM old_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.appVersion, r.time, r.trailSource AS src, 1 AS s
FROM old_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.appVersion, r.time, r.trailSource AS src, -1 AS s
FROM new_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.appVersion, r.time, 'joined' AS src, 1 AS s
FROM new_rows x JOIN report r ON r.id = x.id) c GROUP BY signature
HAVING SUM(s) <> 0 OR SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END) <> 0 OR SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_count_joined_update AFTER UPDATE ON joinedTrail REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_count_joined_update();
CREATE FUNCTION crashtrail_compact_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(7166462237415994483) THEN
        RETURN;
    END IF;
WITH moved AS (DELETE FROM groupCount RETURNING *)
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(reports), SUM(withTrail), SUM(inferred) FROM moved GROUP BY signature HAVING SUM(reports) <> 0 OR SUM(withTrail) <> 0 OR SUM(inferred) <> 0;
WITH moved AS (DELETE FROM groupVersionCount RETURNING *)
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, known, version, SUM(reports) FROM moved GROUP BY signature, known, version HAVING SUM(reports) <> 0;
WITH moved AS (DELETE FROM groupDayCount RETURNING *)
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, day, SUM(reports) FROM moved GROUP BY signature, day HAVING SUM(reports) <> 0;
END
$$;

-- v8: trails compressed with lz4
DO $$
BEGIN
    ALTER TABLE report ALTER COLUMN trail SET COMPRESSION lz4;
    ALTER TABLE joinedTrail ALTER COLUMN trail SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END
$$;

-- v9: path counts kept as reports arrive
CREATE TABLE groupPathCount (
    signature TEXT COLLATE "C" NOT NULL,
    bundleID TEXT COLLATE "C" NOT NULL,
    inferred INTEGER NOT NULL,
    screenPath TEXT COLLATE "C" NOT NULL,
    pathManifest TEXT COLLATE "C" NOT NULL,
    reports BIGINT NOT NULL
);
CREATE INDEX groupPathCount_signature ON groupPathCount(signature);
CREATE INDEX groupPathCount_removed ON groupPathCount(signature) WHERE reports < 0;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT signature, bundleID, trailSource, screenPath, pathManifest, 1 AS s FROM reportWithTrail) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
CREATE FUNCTION crashtrail_path_report_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT x.signature, x.bundleID, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN x.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN x.pathManifest ELSE j.pathManifest END AS pathManifest, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_path_report_insert AFTER INSERT ON report REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_path_report_insert();
CREATE FUNCTION crashtrail_path_report_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT x.signature, x.bundleID, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN x.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN x.pathManifest ELSE j.pathManifest END AS pathManifest, -1 AS s
FROM (SELECT OLD.id AS id, OLD.signature AS signature, OLD.bundleID AS bundleID, OLD.trailSource AS trailSource, OLD.screenPath AS screenPath, OLD.pathManifest AS pathManifest) x LEFT JOIN joinedTrail j ON j.id = x.id) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
    RETURN OLD;
END
$$;
CREATE TRIGGER crashtrail_path_report_delete BEFORE DELETE ON report FOR EACH ROW EXECUTE FUNCTION crashtrail_path_report_delete();
CREATE FUNCTION crashtrail_path_report_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT x.signature, x.bundleID, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN x.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN x.pathManifest ELSE j.pathManifest END AS pathManifest, -1 AS s
FROM old_rows x LEFT JOIN joinedTrail j ON j.id = x.id
UNION ALL
SELECT x.signature, x.bundleID, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN x.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN x.pathManifest ELSE j.pathManifest END AS pathManifest, 1 AS s
FROM new_rows x LEFT JOIN joinedTrail j ON j.id = x.id) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_path_report_update AFTER UPDATE ON report REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_path_report_update();
CREATE FUNCTION crashtrail_path_joined_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT r.signature, r.bundleID, r.trailSource, r.screenPath, r.pathManifest, -1 AS s
FROM new_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.bundleID, 'joined' AS trailSource, x.screenPath, x.pathManifest, 1 AS s
FROM new_rows x JOIN report r ON r.id = x.id) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_path_joined_insert AFTER INSERT ON joinedTrail REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_path_joined_insert();
CREATE FUNCTION crashtrail_path_joined_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT r.signature, r.bundleID, 'joined' AS trailSource, x.screenPath, x.pathManifest, -1 AS s
FROM old_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.bundleID, r.trailSource, r.screenPath, r.pathManifest, 1 AS s
FROM old_rows x JOIN report r ON r.id = x.id) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_path_joined_delete AFTER DELETE ON joinedTrail REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_path_joined_delete();
CREATE FUNCTION crashtrail_path_joined_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
FROM (SELECT r.signature, r.bundleID, 'joined' AS trailSource, x.screenPath, x.pathManifest, -1 AS s
FROM old_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.bundleID, r.trailSource, r.screenPath, r.pathManifest, 1 AS s
FROM old_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.bundleID, r.trailSource, r.screenPath, r.pathManifest, -1 AS s
FROM new_rows x JOIN report r ON r.id = x.id
UNION ALL
SELECT r.signature, r.bundleID, 'joined' AS trailSource, x.screenPath, x.pathManifest, 1 AS s
FROM new_rows x JOIN report r ON r.id = x.id) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER crashtrail_path_joined_update AFTER UPDATE ON joinedTrail REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crashtrail_path_joined_update();
CREATE FUNCTION crashtrail_compact_path_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(27994048714532979) THEN
        RETURN;
    END IF;
    WITH touched AS (SELECT DISTINCT signature, bundleID, inferred, screenPath, pathManifest FROM groupPathCount WHERE reports < 0),
    moved AS (DELETE FROM groupPathCount g USING touched t WHERE g.signature = t.signature AND g.bundleID = t.bundleID AND g.inferred = t.inferred AND g.screenPath = t.screenPath AND g.pathManifest = t.pathManifest RETURNING g.*)
    INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
    SELECT signature, bundleID, inferred, screenPath, pathManifest, SUM(reports) FROM moved GROUP BY signature, bundleID, inferred, screenPath, pathManifest HAVING SUM(reports) <> 0;
END
$$;

-- v10: debug files
CREATE TABLE debugFile (
    uuid TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    arch TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    kind TEXT COLLATE "C" NOT NULL,
    textVMAddr BIGINT NOT NULL,
    size BIGINT NOT NULL,
    sha1 TEXT COLLATE "C" NOT NULL,
    added TEXT COLLATE "C" NOT NULL
);
CREATE TABLE debugFileChunk (
    uuid TEXT COLLATE "C" NOT NULL REFERENCES debugFile(uuid) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (uuid, seq)
);
ALTER TABLE debugFileChunk ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE TABLE reportImage (
    uuid TEXT COLLATE "C" NOT NULL,
    reportID TEXT COLLATE "C" NOT NULL REFERENCES report(id) ON DELETE CASCADE,
    name TEXT COLLATE "C" NOT NULL,
    inApp INTEGER NOT NULL,
    symbolicated INTEGER NOT NULL,
    PRIMARY KEY (uuid, reportID)
);
CREATE INDEX reportImage_report ON reportImage(reportID);
CREATE INDEX reportImage_waiting ON reportImage(uuid) WHERE symbolicated = 0;
CREATE TABLE uploadChunk (
    sha1 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    data BYTEA NOT NULL,
    added TEXT COLLATE "C" NOT NULL
);
ALTER TABLE uploadChunk ALTER COLUMN data SET STORAGE EXTERNAL;
INSERT INTO reportImage (uuid, reportID, name, inApp, symbolicated)
SELECT i.value ->> 'uuid', r.id, i.value ->> 'name', 1, 0
FROM report r, jsonb_array_elements(COALESCE(r.details::jsonb -> 'binaryImages', '[]'::jsonb)) AS i(value)
WHERE i.value ->> 'uuid' IS NOT NULL AND i.value ->> 'name' IS NOT NULL
ON CONFLICT DO NOTHING;

-- v11: forwarding outbox
CREATE TABLE forwardOutbox (
    reportID TEXT COLLATE "C" NOT NULL REFERENCES report(id) ON DELETE CASCADE,
    upstream TEXT COLLATE "C" NOT NULL,
    state TEXT COLLATE "C" NOT NULL,
    attempts INTEGER NOT NULL,
    due BIGINT NOT NULL,
    claimedUntil BIGINT NOT NULL,
    reason TEXT,
    queued BIGINT NOT NULL,
    delivered BIGINT,
    PRIMARY KEY (reportID, upstream)
);
CREATE INDEX forwardOutbox_due ON forwardOutbox(upstream, due) WHERE state = 'waiting';

-- v12: session joins and waiting trails
CREATE TABLE reportSession (
    id TEXT COLLATE "C" PRIMARY KEY REFERENCES report(id) ON DELETE CASCADE,
    bundleID TEXT COLLATE "C" NOT NULL,
    session TEXT COLLATE "C" NOT NULL
);
CREATE INDEX reportSession_session ON reportSession(bundleID, session);
CREATE TABLE waitingTrail (
    bundleID TEXT COLLATE "C" NOT NULL,
    session TEXT COLLATE "C" NOT NULL,
    pid BIGINT NOT NULL,
    started BIGINT NOT NULL,
    received BIGINT NOT NULL,
    size BIGINT NOT NULL,
    steps BIGINT NOT NULL,
    trail TEXT NOT NULL,
    dictionary TEXT,
    screenPath TEXT,
    pathManifest TEXT,
    crashScreen TEXT,
    PRIMARY KEY (bundleID, session)
);
CREATE INDEX waitingTrail_launch ON waitingTrail(bundleID, pid, started);
CREATE INDEX waitingTrail_received ON waitingTrail(received);

-- v13: uploaded files
CREATE TABLE uploadedFile (
    checksum TEXT COLLATE "C" NOT NULL,
    uuid TEXT COLLATE "C" NOT NULL REFERENCES debugFile(uuid) ON DELETE CASCADE,
    PRIMARY KEY (checksum, uuid)
);
CREATE INDEX uploadedFile_uuid ON uploadedFile(uuid);

-- v14: grouping rules
CREATE TABLE groupingRules (
    project BIGINT PRIMARY KEY,
    rules TEXT NOT NULL,
    updated TEXT COLLATE "C" NOT NULL
);
CREATE TABLE groupMerge (
    project BIGINT NOT NULL,
    signature TEXT COLLATE "C" NOT NULL,
    mergedInto TEXT COLLATE "C" NOT NULL,
    merged TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (project, signature)
);

-- v15: release health
CREATE TABLE sessionCount (
    project BIGINT NOT NULL,
    release TEXT COLLATE "C" NOT NULL,
    environment TEXT COLLATE "C" NOT NULL,
    hour BIGINT NOT NULL,
    started BIGINT NOT NULL,
    crashed BIGINT NOT NULL,
    abnormal BIGINT NOT NULL,
    errored BIGINT NOT NULL,
    users BYTEA NOT NULL,
    crashedUsers BYTEA NOT NULL,
    PRIMARY KEY (project, release, environment, hour)
);
CREATE TABLE pathVisit (
    project BIGINT NOT NULL,
    release TEXT COLLATE "C" NOT NULL,
    kind BIGINT NOT NULL,
    screens TEXT COLLATE "C" NOT NULL,
    sessions DOUBLE PRECISION NOT NULL,
    squares DOUBLE PRECISION NOT NULL,
    trails BIGINT NOT NULL,
    PRIMARY KEY (project, release, screens)
);

-- v16: tokens and limits
CREATE TABLE token (
    id BIGINT PRIMARY KEY NOT NULL,
    project BIGINT,
    scopes TEXT COLLATE "C" NOT NULL,
    hash TEXT COLLATE "C" NOT NULL UNIQUE,
    hint TEXT COLLATE "C" NOT NULL,
    created BIGINT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE project ADD COLUMN eventsPerMinute BIGINT;
ALTER TABLE uploadChunk ADD COLUMN project BIGINT NOT NULL DEFAULT 0;
CREATE INDEX uploadChunk_project ON uploadChunk(project);

-- v17: projects kept apart
ALTER TABLE report ADD COLUMN project BIGINT NOT NULL DEFAULT 1;
UPDATE report SET project = CAST(substring(source FROM '^api/([0-9]{1,18})/') AS BIGINT)
    WHERE source ~ '^api/[0-9]{1,18}/' AND substring(source FROM '^api/([0-9]{1,18})/') <> '1';
DROP VIEW reportWithTrail;
CREATE VIEW reportWithTrail AS
    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
        r.frames, r.exceptionFrames, r.details, r.signature,
        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
        CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
        CASE WHEN j.id IS NULL THEN r.screenPath ELSE j.screenPath END AS screenPath,
        CASE WHEN j.id IS NULL THEN r.pathManifest ELSE j.pathManifest END AS pathManifest,
        r.pid, r.launchTime, r.source, r.payload, r.payloadSize, r.project
    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
ALTER TABLE waitingTrail ADD COLUMN project BIGINT NOT NULL DEFAULT 1;
ALTER TABLE waitingTrail DROP CONSTRAINT waitingtrail_pkey;
ALTER TABLE waitingTrail ADD PRIMARY KEY (project, bundleID, session);
DROP INDEX waitingTrail_launch;
CREATE INDEX waitingTrail_launch ON waitingTrail(project, bundleID, pid, started);
ALTER TABLE uploadedFile DROP CONSTRAINT uploadedfile_uuid_fkey;
ALTER TABLE debugFileChunk DROP CONSTRAINT debugfilechunk_uuid_fkey;
ALTER TABLE debugFile ADD COLUMN project BIGINT NOT NULL DEFAULT 0;
ALTER TABLE debugFileChunk ADD COLUMN project BIGINT NOT NULL DEFAULT 0;
ALTER TABLE uploadedFile ADD COLUMN project BIGINT NOT NULL DEFAULT 0;
ALTER TABLE debugFile DROP CONSTRAINT debugfile_pkey;
ALTER TABLE debugFile ADD PRIMARY KEY (project, uuid);
ALTER TABLE debugFileChunk DROP CONSTRAINT debugfilechunk_pkey;
ALTER TABLE debugFileChunk ADD PRIMARY KEY (project, uuid, seq);
ALTER TABLE debugFileChunk ADD FOREIGN KEY (project, uuid) REFERENCES debugFile(project, uuid) ON DELETE CASCADE;
ALTER TABLE uploadedFile DROP CONSTRAINT uploadedfile_pkey;
ALTER TABLE uploadedFile ADD PRIMARY KEY (project, checksum, uuid);
ALTER TABLE uploadedFile ADD FOREIGN KEY (project, uuid) REFERENCES debugFile(project, uuid) ON DELETE CASCADE;
CREATE INDEX debugFile_uuid ON debugFile(uuid);
DROP INDEX uploadedFile_uuid;
CREATE INDEX uploadedFile_uuid ON uploadedFile(project, uuid);

-- v18: reads and upload chunks per project
CREATE INDEX report_project ON report(project, signature) WHERE project <> 1;
ALTER TABLE uploadChunk DROP CONSTRAINT uploadchunk_pkey;
ALTER TABLE uploadChunk ADD PRIMARY KEY (project, sha1);
DROP INDEX uploadChunk_project;

-- v19: waiting trails counted, joined trails by digest
ALTER TABLE waitingTrail ADD COLUMN digest BYTEA;
UPDATE waitingTrail SET digest = sha256(convert_to(trail, 'UTF8'));
ALTER TABLE joinedTrail ADD COLUMN digest BYTEA;
UPDATE joinedTrail SET digest = sha256(convert_to(trail, 'UTF8'));
CREATE INDEX joinedTrail_digest ON joinedTrail(digest);
CREATE TABLE waitingTrailTotal (
    project BIGINT PRIMARY KEY NOT NULL,
    count BIGINT NOT NULL,
    bytes BIGINT NOT NULL
);
INSERT INTO waitingTrailTotal (project, count, bytes)
    SELECT project, COUNT(*), COALESCE(SUM(size), 0) FROM waitingTrail GROUP BY project;
CREATE FUNCTION crashtrail_waiting_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE waitingTrailTotal SET count = count - 1, bytes = bytes - OLD.size WHERE project = OLD.project;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO waitingTrailTotal (project, count, bytes) VALUES (NEW.project, 1, NEW.size)
            ON CONFLICT (project) DO UPDATE SET
                count = waitingTrailTotal.count + 1, bytes = waitingTrailTotal.bytes + excluded.bytes;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER waitingTrail_total AFTER INSERT OR DELETE OR UPDATE OF project, size ON waitingTrail
    FOR EACH ROW EXECUTE FUNCTION crashtrail_waiting_total();

-- v20: sessions seen
CREATE TABLE seenSession (
    project BIGINT NOT NULL,
    sid TEXT COLLATE "C" NOT NULL,
    started INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    seen BIGINT NOT NULL,
    PRIMARY KEY (project, sid)
);
CREATE INDEX seenSession_seen ON seenSession(seen);
CREATE INDEX seenSession_project_seen ON seenSession(project, seen);
CREATE TABLE seenSessionTotal (project BIGINT PRIMARY KEY NOT NULL, count BIGINT NOT NULL);
CREATE FUNCTION crashtrail_seen_session_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE seenSessionTotal SET count = count - 1 WHERE project = OLD.project;
    ELSE
        INSERT INTO seenSessionTotal (project, count) VALUES (NEW.project, 1)
            ON CONFLICT (project) DO UPDATE SET count = seenSessionTotal.count + 1;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER seenSession_total AFTER INSERT OR DELETE ON seenSession
    FOR EACH ROW EXECUTE FUNCTION crashtrail_seen_session_total();

// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (properties spelled as the JSON keys they decode)
import Foundation
import YYModel

// @Model mirrors of Models.swift (same shapes, names prefixed with M), written by
// scripts/generate-macro-models.py: the macro path needs its own types so that JSONDecoder keeps
// the synthesized Codable of the originals.

@Model
struct MTwitter {
    var statuses: [MStatus]
    var search_metadata: MSearchMetadata
}

@Model
struct MSearchMetadata {
    var completed_in: Double; var max_id: UInt64; var max_id_str: String; var next_results: String
    var query: String; var refresh_url: String; var count: Int; var since_id: UInt64; var since_id_str: String
}

@Model
final class MStatus {
    var metadata: [String: String]
    var created_at: String
    var id: UInt64
    var id_str: String
    var text: String
    var source: String
    var truncated: Bool
    var in_reply_to_status_id: UInt64?
    var in_reply_to_status_id_str: String?
    var in_reply_to_user_id: UInt64?
    var in_reply_to_user_id_str: String?
    var in_reply_to_screen_name: String?
    var user: MUser
    var retweet_count: Int
    var favorite_count: Int
    var entities: MEntities
    var favorited: Bool
    var retweeted: Bool
    var lang: String
    var possibly_sensitive: Bool?
    var retweeted_status: MStatus?
}

@Model
struct MUser {
    var id: UInt64; var id_str: String; var name: String; var screen_name: String; var location: String
    var description: String; var url: String?; var protected: Bool; var followers_count: Int; var friends_count: Int
    var listed_count: Int; var created_at: String; var favourites_count: Int; var utc_offset: Int?
    var time_zone: String?; var geo_enabled: Bool; var verified: Bool; var statuses_count: Int; var lang: String
    var contributors_enabled: Bool; var is_translator: Bool; var is_translation_enabled: Bool
    var profile_background_color: String; var profile_background_image_url: String?
    var profile_background_image_url_https: String?; var profile_background_tile: Bool
    var profile_image_url: String; var profile_image_url_https: String; var profile_banner_url: String?
    var profile_link_color: String; var profile_sidebar_border_color: String; var profile_sidebar_fill_color: String
    var profile_text_color: String; var profile_use_background_image: Bool; var default_profile: Bool
    var default_profile_image: Bool; var following: Bool; var follow_request_sent: Bool; var notifications: Bool
}

@Model
struct MEntities {
    var hashtags: [MHashtag]; var symbols: [String]; var urls: [MURLEntity]; var user_mentions: [MMention]; var media: [MMedia]?
}

@Model
struct MHashtag { var text: String; var indices: [Int] }
@Model
struct MURLEntity { var url: String; var expanded_url: String; var display_url: String; var indices: [Int] }
@Model
struct MMention { var screen_name: String; var name: String; var id: UInt64; var id_str: String; var indices: [Int] }
@Model
struct MMedia {
    var id: UInt64; var id_str: String; var indices: [Int]; var media_url: String; var media_url_https: String
    var url: String; var display_url: String; var expanded_url: String; var type: String
    var sizes: [String: MMediaSize]; var source_status_id: UInt64?; var source_status_id_str: String?
}
@Model
struct MMediaSize { var w: Int; var h: Int; var resize: String }

@Model
struct MCitmCatalog {
    var areaNames: [String: String]; var audienceSubCategoryNames: [String: String]; var blockNames: [String: String]
    var events: [String: MEvent]; var performances: [MPerformance]; var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]; var subjectNames: [String: String]; var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]; var venueNames: [String: String]
}

@Model
struct MEvent {
    var description: String?; var id: Int; var logo: String?; var name: String; var subTopicIds: [Int]
    var subjectCode: String?; var subtitle: String?; var topicIds: [Int]
}

@Model
struct MPerformance {
    var eventId: Int; var id: Int; var logo: String?; var name: String?; var prices: [MPrice]
    var seatCategories: [MSeatCategory]; var seatMapImage: String?; var start: Int; var venueCode: String
}

@Model
struct MPrice { var amount: Int; var audienceSubCategoryId: Int; var seatCategoryId: Int }
@Model
struct MSeatCategory { var areas: [MArea]; var seatCategoryId: Int }
@Model
struct MArea { var areaId: Int; var blockIds: [Int] }

@Model
struct MCanada {
    var type: String
    var features: [MFeature]
}

@Model
struct MFeature {
    var type: String
    var properties: [String: String]
    var geometry: MGeometry
}

@Model
struct MGeometry {
    var type: String
    var coordinates: [[[Double]]]
}

@Model
struct MGitHubUser: Equatable {
    var login: String; var id: UInt64; var avatar_url: String; var gravatar_id: String; var url: String
    var html_url: String; var followers_url: String; var following_url: String; var gists_url: String
    var starred_url: String; var subscriptions_url: String; var organizations_url: String; var repos_url: String
    var events_url: String; var received_events_url: String; var type: String; var site_admin: Bool
    var name: String; var company: String?; var blog: String; var location: String; var email: String?
    var hireable: Bool?; var bio: String; var public_repos: Int; var public_gists: Int; var followers: Int
    var following: Int
}
